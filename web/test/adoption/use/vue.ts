// The Vue binding as an app uses it: useAgent's shallow refs in setup, read
// by computed refs and a render function.
import { computed, defineComponent, h } from 'vue';
import type { ComputedRef } from 'vue';
import { textOf } from '@agui-reducer/web';
import type { AgentState } from '@agui-reducer/web';
import { useAgent } from '@agui-reducer/web/vue';

export default defineComponent({
  name: 'Chat',
  setup() {
    const { state, messages, toolCalls, status, ready, error, send } = useAgent({ url: '/agent' });
    const shown = computed(() => messages.value.filter((m) => m.role !== 'tool'));
    const running: ComputedRef<number> = computed(() => toolCalls.value.filter((t) => t.status === 'running').length);
    const whole: ComputedRef<AgentState> = computed(() => state.value);
    return () => error.value
      ? h('p', { role: 'alert' }, String(error.value))
      : h('form', { onSubmit: (e: Event) => { e.preventDefault(); void send('hello'); } }, [
        ...shown.value.map((m) => h('p', { key: m.id }, textOf(m))),
        h('p', `${running.value} running, status ${status.value}, ${whole.value.messages.length} messages`),
        h('button', { disabled: !ready.value || whole.value.isLoading }, 'Send'),
      ]);
  },
});
