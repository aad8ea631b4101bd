// The Vue binding at run time with the app's Vue: useAgent in an effect
// scope, its shallow refs read by computed refs, disposed with the scope.
import { computed, effectScope } from 'vue';
import { useAgent } from '@agui-reducer/web/vue';

const scope = effectScope();
const count = scope.run(() => {
  const { messages, status } = useAgent({ url: '/agent' });
  return computed(() => `${messages.value.length} messages, status ${status.value}`);
});
if (count.value !== '0 messages, status idle') throw new Error(`read ${count.value}`);
scope.stop();
console.log(`ok: ${count.value}`);
