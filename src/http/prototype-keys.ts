// Refuses parsed JSON bodies holding keys that reach an object's prototype when the data is copied or merged by assignment: `__proto__`, and `constructor` holding `prototype`.
import type { RequestHandler } from 'express';
import { Errors } from '../errors/error-registry.js';

/** True when `value` is an object (not an array) with an own key `prototype`. */
const holdsPrototype = (value: unknown): boolean => value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'prototype');

/**
 * The field (`config.__proto__`, `models[0].x.constructor`) of the first key in `value` that can reach a prototype
 * when the value is later copied or merged by assignment: `__proto__` (JSON.parse keeps it as an own key, but
 * `target[key] = value` sets the target's prototype), or `constructor` whose value holds `prototype` (a merge that
 * walks `target.constructor.prototype` lands on `Object.prototype`). Undefined when there is none. Walks with an
 * explicit stack, so it never recurses whatever the nesting.
 * @example
 * prototypeKeyPath(JSON.parse('{"config":{"__proto__":{"x":1}}}')); // 'config.__proto__'
 */
export function prototypeKeyPath(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--) stack.push([item[index], `${path}[${index}]`]);
      continue;
    }
    const keys = Object.keys(item);
    for (const key of keys) {
      const field = path === '' ? key : `${path}.${key}`;
      if (key === '__proto__' || (key === 'constructor' && holdsPrototype((item as Record<string, unknown>)[key]))) return field;
    }
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index]!;
      stack.push([(item as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`]);
    }
  }
  return undefined;
}

/**
 * Answers 400 `invalid_value`, naming the field, when the parsed body holds a key that reaches a prototype (see
 * {@link prototypeKeyPath}); mounted after the JSON body parser of the admin API, so no such key is ever stored.
 * @example
 * router.use(jsonBody(), refusePrototypeKeys);
 */
export const refusePrototypeKeys: RequestHandler = function refusePrototypeKeys(req, _res, next) {
  const field = prototypeKeyPath(req.body);
  if (field === undefined) next();
  else next(Errors.validation([`The field '${field}' is not allowed: keys named __proto__, or constructor holding prototype, could change an object's prototype.`], { param: field }));
};
