package analysis

// Slim is a copy of s that keeps what a reader comparing snapshots reads
// after it has drawn what it needs from the flow models — the agent's
// documents (compile.Agent.WithoutModel), the config, the review, the
// compiled output, the dry run, the slots and the errors — but not the
// flow models (the agent's model, the Flows and their graphs) nor the
// prompt report. The diff keeps each side this way from its view to the
// end, so the old side's models are not live through the new side's
// analysis (a 33,000-node flow's model is a third of its memory). Asked
// for a Flow, the copy lists and draws them anew. A nil snapshot, or one
// without an agent, is returned as it is.
//
// TestSlimFields names every field of Snapshot as kept or dropped: a new
// field must be placed there.
func (s *Snapshot) Slim() *Snapshot {
	if s == nil || s.Agent == nil {
		return s
	}
	return &Snapshot{Path: s.Path, Mode: s.Mode, Agent: s.Agent.WithoutModel(), LoadErr: s.LoadErr,
		Config: s.Config, Review: s.Review, Compiled: s.Compiled, CompileErr: s.CompileErr,
		DryRun: s.DryRun, Slots: s.Slots, SlotProblem: s.SlotProblem, Stopped: s.Stopped, Started: s.Started, Took: s.Took}
}
