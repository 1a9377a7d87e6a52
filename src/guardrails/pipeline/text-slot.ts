// One piece of checkable text in a request or answer, with a way to put a transformed version back.

/** One piece of checkable text, with a way to put a transformed version back. */
export interface TextSlot {
  text: string;
  replace(next: string): void;
  /**
   * True for text that the checks read but never rewrite: a name the client's own code depends on (a tool's
   * name, a parameter name in a tool's schema). A transform that would change it flags the check instead, since the
   * text can neither be rewritten without breaking the tool nor passed on as the policy would not have it.
   */
  fixed?: boolean;
  /**
   * True for the text of a tool or function definition or an output schema. Checks other than DLP read these slots
   * joined into a text of their own, apart from the messages', and toolinjectiondetection does not read them.
   */
  definition?: boolean;
  /**
   * True for text a tool returned, as a request carries it back to the model (a `tool` or `function` message's
   * content). Processors built for tool results (toolinjectiondetection) read only these slots among a request's.
   */
  toolResult?: boolean;
}

/** A read-only slot (see {@link TextSlot.fixed}); a class, so a schema's thousands of names cost no closure each. */
class FixedSlot implements TextSlot {
  readonly fixed = true;
  readonly definition = true;
  constructor(readonly text: string) {}
  replace(): void {}
}

/** A read-only slot of a definition for `text` (see {@link TextSlot.fixed}). */
export function fixedSlot(text: string): TextSlot {
  return new FixedSlot(text);
}
