/**
 * The forms the question tools ask with, as MCP form elicitation describes them (a flat object
 * of primitive fields). The same forms go out on every SDK and in every protocol era: as a real
 * `elicitation/create` request, or embedded in an `input_required` result.
 */
import { AskError } from './errors.js';

/** The requested schema of a form: a flat object of string and multiple-choice fields. */
export type FormSchema = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
};

/** One form to put to the person: the message shown above it and its fields. */
export interface ElicitationForm {
  message: string;
  requestedSchema: FormSchema;
}

/** What a client sends back for a form: the person's action and, when accepted, the fields. */
export interface FormResponse {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown> | undefined;
}

/**
 * The fields of a form the person sent back; throws the AskError of a form they declined
 * (`declined`) or dismissed (`cancelled`). An accepted form without content is an empty one.
 */
export function acceptedForm(response: FormResponse): Record<string, unknown> {
  if (response.action === 'decline') throw new AskError('declined');
  if (response.action === 'cancel') throw new AskError('cancelled');
  return response.content ?? {};
}

/** A field's text, trimmed; anything but a string is no text. */
export const fieldText = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
