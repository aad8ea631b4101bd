package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Subagent status values.
const (
	SubagentStatusRunning   = "running"
	SubagentStatusFinished  = "finished"
	SubagentStatusSuspended = "suspended"
	SubagentStatusError     = "error"
)

// Subagent is one subagent invocation, as SUBAGENT_STARTED announced it and
// SUBAGENT_FINISHED / SUBAGENT_ERROR ended it. The official client stores
// none of this; the state keeps it so a UI can show nested work live.
type Subagent struct {
	ID                  string // subagentRunId
	Name                string
	Description         string
	HasDescription      bool
	ParentSubagentRunID string
	ParentToolCallID    string
	ParentMessageID     string
	Status              string
	Result              jsontree.Value
	HasResult           bool
	InterruptIDs        *jsontree.Array // suspended: the interrupts it waits on
	Error               *RunErr
	StartTime, EndTime  float64
	HasStart, HasEnd    bool

	pos int
}

func subagentPath(s *Subagent) string { return "/subagents/" + strconv.Itoa(s.pos) }

// eventTime is the event's timestamp, else the clock's reading.
func (r *Reducer) eventTime(ev *Event) (float64, bool) {
	if ev.HasTimestamp {
		return ev.Timestamp, true
	}
	if r.opt.Clock != nil {
		return r.opt.Clock(), true
	}
	return 0, false
}

func (r *Reducer) subagentStarted(c *Change, ev *Event) {
	s := r.subByID[ev.SubagentRunID]
	fresh := s == nil
	if fresh {
		s = &Subagent{ID: ev.SubagentRunID, pos: len(r.st.Subagents)}
		r.st.Subagents = append(r.st.Subagents, s)
		r.subByID[s.ID] = s
	}
	// A start naming a known invocation resumes it (a suspended subagent
	// continued by a later run).
	s.Name = ev.Name
	s.Description, s.HasDescription = ev.Description, ev.HasDescription
	s.ParentSubagentRunID, s.ParentToolCallID, s.ParentMessageID = ev.ParentSubagentRunID, ev.ParentToolCallID, ev.ParentMessageID
	s.Status, s.Error = SubagentStatusRunning, nil
	s.Result, s.HasResult, s.InterruptIDs = nil, false, nil
	s.StartTime, s.HasStart = r.eventTime(ev)
	s.EndTime, s.HasEnd = 0, false
	if fresh {
		c.add(subagentPath(s), s.appendJSON(nil))
		return
	}
	c.replace(subagentPath(s), s.appendJSON(nil))
}

func (r *Reducer) subagentEnded(c *Change, ev *Event) {
	s := r.subByID[ev.SubagentRunID]
	if s == nil {
		// Ended without a start: still shown, so the UI sees the outcome.
		s = &Subagent{ID: ev.SubagentRunID, pos: len(r.st.Subagents)}
		r.st.Subagents = append(r.st.Subagents, s)
		r.subByID[s.ID] = s
		r.setSubagentEnd(s, ev)
		c.add(subagentPath(s), s.appendJSON(nil))
		return
	}
	r.setSubagentEnd(s, ev)
	c.replace(subagentPath(s), s.appendJSON(nil))
}

func (r *Reducer) setSubagentEnd(s *Subagent, ev *Event) {
	s.EndTime, s.HasEnd = r.eventTime(ev)
	if ev.Type == SubagentError {
		s.Status = SubagentStatusError
		s.Error = &RunErr{Message: ev.Message, Code: ev.Code, HasCode: ev.HasCode}
		return
	}
	s.Status = SubagentStatusFinished
	s.Result, s.HasResult = ev.Result, ev.HasResult
	if ev.Outcome != nil {
		if t, _ := ev.Outcome.Get("type"); t == "suspended" {
			s.Status = SubagentStatusSuspended
			ids, _ := ev.Outcome.Get("interruptIds")
			s.InterruptIDs, _ = ids.(*jsontree.Array)
		}
	}
}

func (s *Subagent) appendJSON(dst []byte) []byte {
	first := true
	dst = append(dst, '{')
	dst = appendKey(dst, &first, "id")
	dst = jsontree.AppendString(dst, s.ID)
	dst = appendKey(dst, &first, "name")
	dst = jsontree.AppendString(dst, s.Name)
	if s.HasDescription {
		dst = appendKey(dst, &first, "description")
		dst = jsontree.AppendString(dst, s.Description)
	}
	if s.ParentSubagentRunID != "" {
		dst = appendKey(dst, &first, "parentSubagentRunId")
		dst = jsontree.AppendString(dst, s.ParentSubagentRunID)
	}
	if s.ParentToolCallID != "" {
		dst = appendKey(dst, &first, "parentToolCallId")
		dst = jsontree.AppendString(dst, s.ParentToolCallID)
	}
	if s.ParentMessageID != "" {
		dst = appendKey(dst, &first, "parentMessageId")
		dst = jsontree.AppendString(dst, s.ParentMessageID)
	}
	dst = appendKey(dst, &first, "status")
	dst = jsontree.AppendString(dst, s.Status)
	if s.HasResult {
		dst = appendKey(dst, &first, "result")
		dst = jsontree.AppendJSON(dst, s.Result)
	}
	if s.InterruptIDs != nil {
		dst = appendKey(dst, &first, "interruptIds")
		dst = jsontree.AppendJSON(dst, s.InterruptIDs)
	}
	if s.Error != nil {
		dst = appendKey(dst, &first, "error")
		dst = s.Error.appendJSON(dst)
	}
	if s.HasStart {
		dst = appendKey(dst, &first, "startTime")
		dst = strconv.AppendFloat(dst, s.StartTime, 'f', -1, 64)
	}
	if s.HasEnd {
		dst = appendKey(dst, &first, "endTime")
		dst = strconv.AppendFloat(dst, s.EndTime, 'f', -1, 64)
	}
	return append(dst, '}')
}

// loadSubagent reads a subagent from a snapshot.
func loadSubagent(v jsontree.Value) (*Subagent, error) {
	o, _ := v.(*jsontree.Object)
	if o == nil {
		return nil, errorf("bad_snapshot", "subagents entries must be objects")
	}
	d := fieldsOf(o, "snapshot subagent")
	s := &Subagent{ID: d.Str("id", true), Name: d.Str("name", false), Status: d.Str("status", true)}
	s.Description, s.HasDescription = d.OptStr("description")
	s.ParentSubagentRunID, _ = d.OptStr("parentSubagentRunId")
	s.ParentToolCallID, _ = d.OptStr("parentToolCallId")
	s.ParentMessageID, _ = d.OptStr("parentMessageId")
	s.Result, s.HasResult = o.Get("result")
	s.InterruptIDs = d.Array("interruptIds", false)
	if e := d.Object("error"); e != nil {
		ed := fieldsOf(e, "snapshot subagent error")
		s.Error = &RunErr{Message: ed.Str("message", false)}
		s.Error.Code, s.Error.HasCode = ed.OptStr("code")
	}
	s.StartTime, s.HasStart = loadNumber(&d, o, "startTime")
	s.EndTime, s.HasEnd = loadNumber(&d, o, "endTime")
	switch s.Status {
	case SubagentStatusRunning, SubagentStatusFinished, SubagentStatusSuspended, SubagentStatusError:
	default:
		d.Fail("unknown subagent status '" + s.Status + "'")
	}
	if d.Err != nil {
		return nil, d.Err
	}
	return s, nil
}

func loadNumber(d *fields, o *jsontree.Object, key string) (float64, bool) {
	v, ok := o.Get(key)
	if !ok {
		return 0, false
	}
	n, _ := v.(jsontree.Number)
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		d.Fail(key + " must be a number")
		return 0, false
	}
	return f, true
}
