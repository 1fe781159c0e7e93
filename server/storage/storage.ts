/**
 * Where uploaded files live. The app talks to the `Storage` interface only: the local disk
 * (here) or an S3-compatible object store (s3-storage.ts), chosen by the configuration. Keys
 * are slash-separated names of lower-case letters, digits, `-` and `_` with one extension.
 *
 * Keys under `private/` (documents only their owner and staff may see) never have a public
 * address: `uploadUrl` refuses them and `/uploads/...` never serves them, whichever storage
 * (docs/decisions/0015-object-storage.md).
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

interface StoredFile {
  data: Buffer;
  contentType: string;
}

export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  /** The file, or null when there is none (or the key is not a valid key). */
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
}

/**
 * A file a page's form reader already checked and stored before the operation runs (a message's
 * attachment, server/conversations/attachments.ts): the operation finds it in its context.
 */
export interface UploadedFile {
  key: string;
  /** The name the sender gave it. */
  name: string;
  contentType: string;
  sizeBytes: number;
}

/** Deletes files stored for a write that did not happen (a form refused, a message not written). */
export async function discardFiles(storage: Storage, files: readonly { key: string }[]): Promise<void> {
  await Promise.all(files.map((file) => storage.delete(file.key).catch(() => {})));
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};
/** Documents (proof of a credential) are only ever private. */
const PRIVATE_CONTENT_TYPES: Record<string, string> = { ...CONTENT_TYPES, pdf: "application/pdf" };

const KEY = /^(?:[a-z0-9_-]+\/)*[a-z0-9_-]+\.([a-z0-9]+)$/;

/** The content type a key stands for, or null for a key that is not allowed. */
export function contentTypeOfKey(key: string): string | null {
  const match = KEY.exec(key);
  if (!match) return null;
  return (key.startsWith(PRIVATE_PREFIX) ? PRIVATE_CONTENT_TYPES : CONTENT_TYPES)[match[1]!] ?? null;
}

/** Files on the local disk below `root` (by default ./data/uploads). */
export function createLocalStorage(root: string): Storage {
  const fileOf = (key: string) => {
    if (!contentTypeOfKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(root, ...key.split("/"));
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename would be atomic; the names are content hashes, so a rewrite is identical anyway.
      await writeFile(file, data);
    },
    async get(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return null;
      try {
        return { data: await readFile(fileOf(key)), contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

/** The folder of files that are never public. */
const PRIVATE_PREFIX = "private/";
const isPublicKey = (key: string) => contentTypeOfKey(key) !== null && !key.startsWith(PRIVATE_PREFIX);

/** The public address of a stored file; a private one has none. */
const UPLOADS_PREFIX = "/uploads/";
export function uploadUrl(key: string): string {
  if (!isPublicKey(key)) throw new Error(`No public address for storage key: ${key}`);
  return `${UPLOADS_PREFIX}${key}`;
}
/** The key of an address made by `uploadUrl`, or null for any other address (and for any private key). */
export function keyOfUploadUrl(url: string): string | null {
  if (!url.startsWith(UPLOADS_PREFIX)) return null;
  const key = url.slice(UPLOADS_PREFIX.length);
  return isPublicKey(key) ? key : null;
}
