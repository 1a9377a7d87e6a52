// One piece of checkable text in a request or answer, with a way to put a transformed version back.

/** One piece of checkable text, with a way to put a transformed version back. */
export interface TextSlot {
  text: string;
  replace(next: string): void;
  /**
   * True for text that is read by every check but never rewritten: a name the client's own code depends on (a tool's
   * name, a parameter name in a tool's schema). A transform that would change it flags the check instead, since the
   * text can neither be rewritten without breaking the tool nor passed on as the policy would not have it.
   */
  fixed?: boolean;
}

/** A read-only slot (see {@link TextSlot.fixed}); a class, so a schema's thousands of names cost no closure each. */
class FixedSlot implements TextSlot {
  readonly fixed = true;
  constructor(readonly text: string) {}
  replace(): void {}
}

/** A read-only slot for `text` (see {@link TextSlot.fixed}). */
export function fixedSlot(text: string): TextSlot {
  return new FixedSlot(text);
}
