"""pymunk-backed input devices: tray bodies for dragging."""
