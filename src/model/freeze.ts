/** Deep-freezing for the model: plain objects, arrays and Maps; class instances (parsed positions) stay as they are. */

function frozenMap<K, V>(m: Map<K, V>): Map<K, V> {
  const refuse = () => {
    throw new TypeError('the cluster model is immutable');
  };
  Object.defineProperty(m, 'set', { value: refuse });
  Object.defineProperty(m, 'delete', { value: refuse });
  Object.defineProperty(m, 'clear', { value: refuse });
  return Object.freeze(m);
}

/** Freezes `value` and everything reachable from it through plain objects, arrays and Maps. */
export function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  if (value instanceof Map) {
    for (const [k, v] of value) {
      deepFreeze(k, seen);
      deepFreeze(v, seen);
    }
    frozenMap(value);
    return value;
  }
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  for (const v of Object.values(value as object)) deepFreeze(v, seen);
  return Object.freeze(value);
}
