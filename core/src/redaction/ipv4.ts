// Dotted-quad IPv4, each part 0-255 without leading zeros: what node:net's isIPv4 accepts, without
// loading node:net (and the socket code behind it) on the preview path.
const IPV4_PART = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const IPV4 = new RegExp(`^(?:${IPV4_PART}\\.){3}${IPV4_PART}$`);

/** Whether a text is an IPv4 address in dotted-quad form, as node:net's isIPv4 judges it. */
export function isIPv4(text: string): boolean {
  return IPV4.test(text);
}
