/** A rule's pattern with the global flag, made once per pattern and rewound, for matchAll and exec loops. */
const globals = new WeakMap<RegExp, RegExp>()

export function globalOf(pattern: RegExp): RegExp {
  let global = globals.get(pattern)
  if (!global) globals.set(pattern, (global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`)))
  global.lastIndex = 0
  return global
}
