/**
 * What starts the request: a new user message, or the agent loop's next step, which sends the
 * history as it stands (it ends with the results of the tools the model called).
 */
export type TurnInput = 'prompt' | 'continuation';
