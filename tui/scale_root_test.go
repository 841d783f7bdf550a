package tui

import tea "charm.land/bubbletea/v2"

// scaleRoot is the program's root model on the tree.
func scaleRoot(ws *wsModel) tea.Model { return newApp(ws, RunConfig{}, nil) }

func scaleStop(ws *wsModel) { ws.close() }
