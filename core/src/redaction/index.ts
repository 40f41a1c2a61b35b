// Everything cw prints that it did not write itself goes through one of these.
export { safeIdentifier, safeCatalogModel, safePhrase } from './safe-label.js';
export { safeKeyPath } from './safe-key-path.js';
export { safePackageName } from './safe-package-name.js';
export { safeErrorText, REDACTED, PATH_REDACTED, UNAVAILABLE } from './safe-error-text.js';
export { endpointHostClass, endpointFingerprint } from './endpoint-class.js';
export { terminalSafe, terminalSafeMultiline } from './terminal-safe.js';
export { safeEnvVarName } from './safe-env-var-name.js';
