// Drive cw from your own program: preview the next turn, then run it and stream its events.
// Usage: node docs/examples/embed-agent.mjs "your prompt"   (in the folder the turn works in)
import { createCwAgent } from '@cw/cli/agent';

const prompt = process.argv[2] ?? 'What does this repository do?';
// The agent cw itself runs: the built-in plugins, the cw home, this folder's workspace and session.
const agent = await createCwAgent({ cwd: process.cwd() });

// Exactly what would be sent, offline, changing nothing.
const { manifest } = await agent.preview(prompt);
if ('exact' in manifest.body) console.log(`preview: ${manifest.body.exact.body_sha256}`);
else console.log(`preview: ${manifest.body.unavailable.reason}`);

// Ctrl-C stops the running step; calls already answered are kept.
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

const run = agent.run(prompt, {
  approval: 'ask',
  signal: controller.signal,
  // Asked for each call the posture does not settle; answer 'yes', 'no' or 'always'.
  onApproval: async (call) => (call.name === 'read_file' || call.name === 'list_directory' ? 'yes' : 'no'),
});
for await (const event of run) {
  switch (event.type) {
    case 'step-start':
      console.log(`step ${event.step}: ${event.body_sha256}`);
      break;
    case 'text-delta':
      process.stdout.write(event.text);
      break;
    case 'tool-call':
      console.log(`\ntool ${event.call.name} ${event.summary}`);
      break;
    case 'tool-result':
      console.log(`tool ${event.record.call.name}: ${event.record.status}`);
      break;
    case 'turn-finish':
      console.log(
        `\ndone (${event.stop}) after ${event.steps} requests: ${event.usage.input_tokens} in, ${event.usage.output_tokens} out`,
      );
      break;
    case 'error':
      console.error(`cw: ${event.error.safeMessage ?? 'the turn failed'}`);
      process.exitCode = 1;
      break;
  }
}
