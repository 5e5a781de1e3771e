"use client";
// A refusal said at the field it is about, as screen readers expect: that field carries aria-invalid="true" and an
// aria-describedby naming the refusal's text (the note's id), and once a submitted form is refused, focus goes to it
// (or, for a refusal about no field, to the refusal itself), so a keyboard or screen reader user lands on what to
// correct instead of on a disabled button or the page's top. The one way of the dashboard's forms (Scans, Links,
// Senders, Vulnerabilities, the lookup console): each says which API field each of its inputs sends.
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
  const inputs = useRef(new Map<string, HTMLElement>());
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
        ref: (el) => {
          for (const n of list) {
            if (el) inputs.current.set(n, el);
            else inputs.current.delete(n);
          }
        },
        ...(invalid ? { "aria-invalid": true as const } : {}),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
      };
    },
    [field, noteId],
  );
  return { noteId, field, fieldProps };
}
