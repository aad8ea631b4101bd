package dialect

import "github.com/agui-reducer/agui/reducer"

// ConversationOf is the conversation of a reducer's state: what
// ReadConversation reads of the snapshot of st, without the text. A host
// that has just restored a snapshot into a reducer passes it to
// ResumeConversation. The strings are the state's own.
func ConversationOf(st *reducer.AgentState) *Conversation {
	c := &Conversation{
		ThreadID:   st.ThreadID,
		RunID:      st.RunID,
		Running:    st.Status == reducer.StatusRunning,
		MessageIDs: make([]string, len(st.Messages)),
	}
	for i, m := range st.Messages {
		c.MessageIDs[i] = m.ID
	}
	for _, tc := range st.ToolCalls {
		c.ToolCalls = append(c.ToolCalls, ConversationToolCall{ID: tc.ID, Name: tc.Name, Running: tc.Status == reducer.ToolRunning})
	}
	for _, s := range st.Steps {
		if s.Status == "running" {
			c.RunningSteps = append(c.RunningSteps, s.Name)
		}
	}
	if n := len(st.Messages); c.Running && n > 0 {
		if m := st.Messages[n-1]; m.Role == "assistant" && m.Streaming {
			text, _ := m.Content().(string)
			reasoning, has := m.Reasoning()
			c.Open = &ConversationMessage{ID: m.ID, Text: text, Reasoning: reasoning, ReasoningOpen: has && text == ""}
		}
	}
	return c
}
