/** The `code` of a Node system error, or undefined. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A message for a failed file-system call that names the workspace-relative path only. Node's own messages
 * carry the absolute path of the machine, which the model must not see.
 */
export function fsErrorMessage(error: unknown, displayPath: string): string {
  // A refusal of the workspace's file access is already one safe line: a leading link, a hidden path, .git.
  const refusal = refusalOf(error);
  if (refusal !== undefined) return refusal;
  switch (errorCode(error)) {
    case 'ENOENT':
      return `${displayPath}: no such file or directory`;
    case 'ENOTDIR':
      return `${displayPath}: a component of the path is not a directory`;
    case 'EISDIR':
      return `${displayPath}: is a directory`;
    case 'EACCES':
    case 'EPERM':
      return `${displayPath}: permission denied`;
    case 'ELOOP':
      return `${displayPath}: too many levels of symbolic links`;
    case 'ENAMETOOLONG':
      return `${displayPath}: path is too long`;
    case 'EMFILE':
    case 'ENFILE':
      return `${displayPath}: too many open files; try again`;
    case 'ENOSPC':
      return `${displayPath}: no space left on the device`;
    case 'EROFS':
      return `${displayPath}: the file system is read-only`;
    case 'EBUSY':
      return `${displayPath}: resource busy`;
    case undefined:
      return `${displayPath}: ${error instanceof Error ? error.name : 'unexpected error'}`;
    default:
      return `${displayPath}: file system error ${errorCode(error)}`;
  }
}

/** The one-line refusal a WorkspaceFiles call threw, or undefined for any other error. */
export function refusalOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const refusal = (error as { refusal?: unknown }).refusal;
  return typeof refusal === 'string' ? refusal : undefined;
}
