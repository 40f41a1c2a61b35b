// The name of the tap that answered each resolveRoute answer, kept beside the answer rather than on a
// copy of it: no tap can set it, and an answer is not copied on every request (docs/performance.md).
const answeredBy = new WeakMap<object, string>();

/** Records that the tap `tapName` gave `answer`; the hook calls it, never a tap. */
export function stampAnswer<Answer>(answer: Answer, tapName: string): Answer {
  if (typeof answer === 'object' && answer !== null) answeredBy.set(answer, tapName);
  return answer;
}

/** The name of the tap that last gave `answer`, or undefined when no tap of the hook did. */
export function answeredByOf(answer: object): string | undefined {
  return answeredBy.get(answer);
}
