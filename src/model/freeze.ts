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

/**
 * Freezes `value` and everything reachable from it through plain objects, arrays and Maps. An object already frozen
 * is taken as done (each object is frozen before its children are visited, so cycles end there): no set of visited
 * objects, which at 65,536 streams was a large share of the model build and of its garbage.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (value instanceof Map) {
    frozenMap(value);
    for (const [k, v] of value) {
      deepFreeze(k);
      deepFreeze(v);
    }
    return value;
  }
  if (Array.isArray(value)) {
    Object.freeze(value);
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    return value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  Object.freeze(value);
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
