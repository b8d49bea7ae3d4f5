/**
 * Writing what the CLI produces: output files are checked before any collection starts (a typo in `--output` must not
 * cost a whole read of the cluster), each is written atomically (a temporary file in the same directory, then a
 * rename: a reader never sees half a report, a failed write never leaves a truncated one), and several outputs are
 * all-or-nothing (every temporary file is written before any is renamed into place). Special files (`/dev/stdout`,
 * a FIFO) cannot be renamed over and are written in place, after the temporary files and before the renames.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, openSync, statSync, writeSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { printable } from '../text.js';

/** What the system error of a write says, in a few words (the code and its meaning). */
export function describeWriteError(e: unknown): string {
  return describeFsError(e);
}

function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'no such directory',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent is not a directory',
    ENOSPC: 'no space left on device',
    EROFS: 'read-only file system',
    EDQUOT: 'disk quota exceeded',
    EIO: 'input/output error',
  };
  if (code !== undefined) return words[code] ? `${code} (${words[code]})` : code;
  return printable(e instanceof Error ? e.message : String(e));
}

/**
 * Checks, without writing anything, that each path can be written: its directory exists and is writable, and the path
 * is not a directory nor an existing file without write permission. Throws a one-line UsageError (exit 2) for the
 * first that cannot, naming the flag.
 */
export function checkOutputPaths(paths: readonly string[], flag = '--output'): void {
  for (const path of paths) {
    const shown = printable(path, 200);
    const dir = dirname(path);
    try {
      if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      accessSync(dir, constants.W_OK);
    } catch (e) {
      throw new UsageError(`cannot write ${flag} ${shown}: ${describeFsError(e)}: ${printable(dir, 200)}`);
    }
    let st: ReturnType<typeof statSync> | undefined;
    try {
      st = statSync(path);
    } catch {
      continue; // does not exist yet: the directory check is what matters
    }
    if (st.isDirectory()) throw new UsageError(`cannot write ${flag} ${shown}: EISDIR (is a directory)`);
    try {
      accessSync(path, constants.W_OK);
    } catch (e) {
      throw new UsageError(`cannot write ${flag} ${shown}: ${describeFsError(e)}`);
    }
  }
}

/**
 * One file to write: its text, or a writer that hands the text in chunks to `emit` (the JSON report streams: it can be
 * tens of MB, and is never held as one string).
 */
export interface OutputFile {
  readonly path: string;
  readonly text: string | ((emit: (chunk: string) => void) => void);
}

/** A failed system call while writing (as opposed to an error of the writer itself, which propagates as it is). */
class WriteFailure extends Error {
  constructor(readonly failure: unknown) {
    super('write failed');
  }
}

function sys<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new WriteFailure(e);
  }
}

/** Writes `text` to `path` (opened with `flag`), chunk by chunk, each chunk in full. */
function writeText(path: string, text: OutputFile['text'], flag: string, mode?: number): void {
  const fd = sys(() => openSync(path, flag, mode));
  let closed = false;
  try {
    const put = (chunk: string) => {
      const bytes = Buffer.from(chunk, 'utf8');
      let off = 0;
      while (off < bytes.length) off += sys(() => writeSync(fd, bytes, off, bytes.length - off));
    };
    if (typeof text === 'string') put(text);
    else text(put);
    closed = true;
    sys(() => closeSync(fd));
  } finally {
    if (!closed) closeSync(fd);
  }
}

/**
 * Writes every file atomically and all-or-nothing: each text goes to a temporary file beside its target; only when all
 * were written are they renamed into place. On any failure the temporary files are removed, no target is touched, and
 * a one-line UsageError (exit 2) names the file and the cause (`ENOSPC (no space left on device)`).
 */
export async function writeFilesAtomically(files: readonly OutputFile[], flag = '--output'): Promise<void> {
  const temps: { temp: string; path: string }[] = [];
  // An existing file that is not a regular one (`/dev/stdout`, a FIFO, a device) cannot be replaced by a rename:
  // it is written in place, after every regular file's temporary copy was written and before any rename.
  const special = files.filter((f) => {
    try {
      return !statSync(f.path).isFile();
    } catch {
      return false;
    }
  });
  try {
    for (const f of files) {
      if (special.includes(f)) continue;
      const temp = join(dirname(f.path), `.${basename(f.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
      temps.push({ temp, path: f.path });
      try {
        writeText(temp, f.text, 'wx', 0o644);
      } catch (e) {
        if (!(e instanceof WriteFailure)) throw e;
        throw new UsageError(`cannot write ${flag} ${printable(f.path, 200)}: ${describeFsError(e.failure)}`);
      }
    }
    for (const f of special) {
      try {
        writeText(f.path, f.text, 'w');
      } catch (e) {
        if (!(e instanceof WriteFailure)) throw e;
        throw new UsageError(`cannot write ${flag} ${printable(f.path, 200)}: ${describeFsError(e.failure)}`);
      }
    }
    for (const { temp, path } of temps) {
      try {
        await rename(temp, path);
      } catch (e) {
        throw new UsageError(`cannot write ${flag} ${printable(path, 200)}: ${describeFsError(e)}`);
      }
    }
  } finally {
    await Promise.all(temps.map(({ temp }) => rm(temp, { force: true }).catch(() => undefined)));
  }
}
