"use client";
// A refusal said at the field it is about, as screen readers expect: that field carries aria-invalid="true" and an
// aria-describedby naming the refusal's text (the note's id), and once a submitted form is refused, focus goes to it
// (or, for a refusal about no field, to the refusal itself), so a keyboard or screen reader user lands on what to
// correct instead of on a disabled button or the page's top. The one way of the dashboard's forms (Scans, Links,
// Senders, Vulnerabilities, the lookup console): each says which API field each of its inputs sends. A form's own
// checks (before anything is sent) and a refusal the page splits by field (a rule's conditions) say several problems
// at once, each under its field: useFieldProblems marks those the same way, and focuses the first in the page's order.
import { useCallback, useEffect, useId, useRef } from "react";
import { errorCode } from "./ErrorNote";
import { refusedFields } from "./field-words";

/** Refusals of what was typed that name no field: they are about the form's main field (its target). */
const ABOUT_THE_INPUT = new Set([
  "INVALID_REQUEST",
  "INVALID_INPUT",
  "TARGET_FORBIDDEN",
  "DOMAIN_NOT_FOUND",
  "CVE_NOT_FOUND",
  "PACKAGE_NOT_FOUND",
  "CONFLICT",
]);

export interface RefusalFields {
  /** The form's fields by the API's names, with their labels (the same map inFormWords says them with). */
  labels: Record<string, string>;
  /** The field a refusal of the input that names none is about (the form's target), if the form has one. */
  main?: string;
  /** Codes about one field in particular (VERSION_NOT_FOUND is about the version). */
  byCode?: Record<string, string>;
  /** Moves focus when the refusal comes (default): false for a check that runs as the user types. */
  focus?: boolean;
}

/**
 * A refusal made in the page itself, before anything is sent (a request body that is not JSON): it names the input it
 * is about by the name that input's fieldProps gives.
 */
export type PageRefusal = { message: string; field: string };

/**
 * The field of the form a refusal is about, or null: the one a refusal made in the page names, else the first one its
 * message names, else by its code.
 */
export function refusedField(error: unknown, { labels, main, byCode = {} }: RefusalFields): string | null {
  if (!error) return null;
  const own = (error as Partial<PageRefusal>).field;
  if (typeof own === "string") return own;
  const message = (error as { message?: unknown }).message;
  const named = typeof message === "string" ? refusedFields(message, labels) : [];
  if (named.length) return named[0]!;
  const code = errorCode(error);
  if (code && Object.hasOwn(byCode, code)) return byCode[code]!;
  return code && ABOUT_THE_INPUT.has(code) ? (main ?? null) : null;
}

type FieldProps = {
  ref: (el: HTMLElement | null) => void;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

/**
 * For a form and its latest refusal (`error`, null when none): `noteId`, the id its error note carries, and
 * `fieldProps(names, hintId)` for each input (the API fields it sends: a console's JSON body sends several), which
 * marks the input the refusal is about and keeps the input's own hint in its description.
 */
export function useRefusalAtField(error: unknown, fields: RefusalFields) {
  const noteId = `${useId()}-refusal`;
  const inputs = useFieldElements();
  const field = refusedField(error, fields);
  const focus = fields.focus ?? true;
  useEffect(() => {
    if (!error || !focus) return;
    const target = (field && inputs.current.get(field)) || document.getElementById(noteId);
    target?.focus();
    // A new refusal (a new error object) moves focus once; re-renders with the same one do not.
  }, [error]);
  const fieldProps = useCallback(
    (names: string | string[], hintId?: string): FieldProps => {
      const list = typeof names === "string" ? [names] : names;
      const invalid = field !== null && list.includes(field);
      const describedBy = [hintId, invalid ? noteId : null].filter(Boolean).join(" ");
      return {
        ref: inputs.refFor(list),
        ...(invalid ? { "aria-invalid": true as const } : {}),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
      };
    },
    [field, noteId, inputs],
  );
  return { noteId, field, fieldProps };
}

/** The inputs of a form by the names they send, as their ref callbacks register them. */
function useFieldElements() {
  const elements = useRef(new Map<string, HTMLElement>()).current;
  return useRef({
    current: elements,
    refFor:
      (names: string[]) =>
      (el: HTMLElement | null): void => {
        for (const n of names) {
          if (el) elements.set(n, el);
          else elements.delete(n);
        }
      },
  }).current;
}

/**
 * For problems with several fields at once (`problems`: a field's name to what is wrong with it, in its label's
 * words): `problemId(name)`, the id that field's note carries, and `fieldProps(name, hintId)` for its input, which
 * marks it (aria-invalid) and describes it by its own hint and its problem. Each time `focusOn` changes to a value
 * other than null or undefined (a submit's attempt, a new refusal), the first field with a problem, in the page's
 * order, takes focus; a check that runs as the user types passes null and never moves it.
 */
export function useFieldProblems(problems: Readonly<Record<string, string | undefined>>, focusOn: unknown = null) {
  const base = useId();
  const inputs = useFieldElements();
  const problemId = useCallback((name: string) => `${base}-${name}-problem`, [base]);
  useEffect(() => {
    if (focusOn === null || focusOn === undefined) return;
    const first = Object.keys(problems)
      .filter((name) => problems[name])
      .map((name) => inputs.current.get(name))
      .filter((el): el is HTMLElement => Boolean(el?.isConnected))
      .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0];
    first?.focus();
    // Only a new attempt moves focus: correcting one field (problems change) leaves it where the user is typing.
  }, [focusOn]);
  const fieldProps = useCallback(
    (name: string, hintId?: string): FieldProps => {
      const invalid = Boolean(problems[name]);
      const describedBy = [hintId, invalid ? problemId(name) : null].filter(Boolean).join(" ");
      return {
        ref: inputs.refFor([name]),
        ...(invalid ? { "aria-invalid": true as const } : {}),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
      };
    },
    [problems, problemId, inputs],
  );
  return { problemId, fieldProps };
}
