"""pymunk-backed input devices: tray bodies for dragging, the pile-in path planner."""
