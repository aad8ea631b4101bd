// Development mode of the drop-in agent: values handed to subscribers are
// frozen when NODE_ENV is "development" or "test", as the official client
// freezes its inputs then; in production freeze is the identity. EMPTY is
// the frozen empty list.

export const DEV = typeof process !== 'undefined' && process.env != null &&
  (process.env.NODE_ENV === 'development' || process.env.NODE_ENV === 'test');

export function deepFreeze(v) {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  // An array by index: the view's messages array is frozen anew per event,
  // and Object.keys would make a string per message.
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) deepFreeze(v[i]);
  else for (const k of Object.keys(v)) deepFreeze(v[k]);
  return v;
}

export const freeze = DEV ? deepFreeze : (v) => v;

export const EMPTY = Object.freeze([]);
