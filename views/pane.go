package views

import (
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// Pane is one tab of the side pane. The root model keeps its tabs in a
// slice, so a new tab is one type implementing Pane (its own file) and one
// line in that slice: the tab title, the number key, the help text, the
// layout and the key routing follow from the slice.
type Pane interface {
	// Name is the tab's title.
	Name() string
	// SetSize sets the inner size.
	SetSize(w, h int)
	// Show installs a finished analysis.
	Show(s Shown)
	// View renders exactly h lines of width w.
	View(th Theme) string
	// Nav moves the cursor or scrolls; page is the height of a page.
	Nav(n Nav, page int)
}

// Shown is what a pane is given when an analysis finishes.
type Shown struct {
	Cur        *analysis.Snapshot // the newest analysis
	LastParsed *analysis.Snapshot // the newest one whose flow parsed; nil when none has yet
	Theme      Theme
	// Refusal is the compile gate's review_blocked response for LastParsed (as
	// `oastui compile` prints it); nil when LastParsed may be published.
	Refusal []byte
	// Outside are findings about this agent that its own analysis does not
	// raise: the workspace's (workspace.Index.AgentFindings) when the agent
	// was opened from the workspace. The Findings tab shows them with Cur's.
	Outside []compile.Finding
}

// Nav is a movement the root model matched on a key binding.
type Nav int

// Movements a pane may be asked for; a pane ignores those it has no use for.
const (
	NavUp Nav = iota
	NavDown
	NavPageUp
	NavPageDown
	NavTop
	NavBottom
	NavLeft  // scroll sideways (text panes)
	NavRight // scroll sideways (text panes)
	NavSpace // page down in text panes; lists ignore it
)

// Optional capabilities the root model looks for on the current tab.
type (
	// Badger adds a short text after the tab name (Findings: the count).
	Badger interface{ Badge() string }
	// Locator says where in the agent the tab's selection is: the graph
	// selects that node, and `e` opens the editor there.
	Locator interface{ Target() (Target, bool) }
	// Jumper is a Locator whose selection enter jumps to in the graph.
	Jumper interface{ JumpsOnEnter() }
	// NodeFollower shows the graph's selected node.
	NodeFollower interface {
		SetNode(th Theme, info *NodeInfo)
	}
	// Opener handles enter and back itself (Findings: enter reads the
	// finding in full or folds a bucket, esc/⌫ closes it). Open and Close
	// report whether they did something.
	Opener interface {
		Open() bool
		Close() bool
	}
	// LastParsed panes show the newest good analysis, not the newest one:
	// while the flow file is broken the root model marks them stale.
	LastParsed interface{ ShowsLastParsed() }
	// SlotSelector's selection is a context slot (the picker opens for it).
	SlotSelector interface{ SelectedSlot() (string, bool) }
)

// Target is a place in the agent: a file position and JSON Pointer, or a
// graph node id.
type Target struct {
	File      string
	Pointer   string
	NodeID    string
	Line, Col int
}

// listNav applies a movement to a cursor list.
func listNav(l interface {
	Move(int)
	Home()
	End()
}, n Nav, page int) {
	switch n {
	case NavUp:
		l.Move(-1)
	case NavDown:
		l.Move(1)
	case NavPageUp:
		l.Move(-page)
	case NavPageDown:
		l.Move(page)
	case NavTop:
		l.Home()
	case NavBottom:
		l.End()
	}
}
