package analysis

import (
	"reflect"
	"testing"
	"time"
)

// TestSlimFields places every field of Snapshot: kept by Slim (the copy
// holds the same value) or dropped (the copy holds the zero value). A field
// added to Snapshot fails here until it is placed.
func TestSlimFields(t *testing.T) {
	kept := map[string]bool{"Path": true, "Mode": true, "LoadErr": true, "Config": true, "Review": true,
		"Compiled": true, "CompileErr": true, "DryRun": true, "Slots": true, "SlotProblem": true,
		"Stopped": true, "Started": true, "Took": true}
	dropped := map[string]bool{"Agent": true, // replaced by its copy without a model, below
		"Flows": true, "listed": true, "all": true, "byPtr": true, "Prompts": true}
	st := reflect.TypeOf(Snapshot{})
	for i := 0; i < st.NumField(); i++ {
		name := st.Field(i).Name
		if kept[name] == dropped[name] {
			t.Errorf("Snapshot.%s: placed neither as kept nor as dropped by Slim (or as both)", name)
		}
	}
	s := Run(fixture("orchestrator-agent"), Options{Stages: Everything})
	if s.Agent == nil {
		t.Fatal(s.LoadErr)
	}
	s.Started, s.Took, s.SlotProblem, s.Stopped = time.Unix(1, 0), time.Second, "x", true
	s.Agent.Model()
	c := s.Slim()
	sv, cv := reflect.ValueOf(s).Elem(), reflect.ValueOf(c).Elem()
	for i := 0; i < st.NumField(); i++ {
		f := st.Field(i)
		if !f.IsExported() {
			continue
		}
		same := reflect.DeepEqual(sv.Field(i).Interface(), cv.Field(i).Interface())
		if kept[f.Name] && !same {
			t.Errorf("Slim did not keep %s", f.Name)
		}
		if dropped[f.Name] && f.Name != "Agent" && !cv.Field(i).IsZero() {
			t.Errorf("Slim kept %s", f.Name)
		}
	}
	if c.Agent == s.Agent || c.Agent.Flow != s.Agent.Flow {
		t.Error("the copy's agent is not the documents without the model")
	}
	if (*Snapshot)(nil).Slim() != nil {
		t.Error("nil")
	}
}
