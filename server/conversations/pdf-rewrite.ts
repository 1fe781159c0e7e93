/**
 * A message's PDF is written again before it is stored (issue 45, finding 7; decision 0068),
 * with @cantoo/pdf-lib, without what identifies its author or runs by itself: the document
 * information (Author, Creator, Producer, title, dates), every XMP `/Metadata` stream, the
 * catalog's `/OpenAction`, the additional actions (`/AA`) of the document, its pages, their
 * annotations and form fields, any JavaScript, Launch, ImportData, SubmitForm or Rendition
 * action wherever it hangs, and the JavaScript and EmbeddedFiles name trees. Pages, their
 * content, fonts, images, links to addresses or pages, bookmarks and forms stay as they were
 * (their streams are copied, never decoded).
 *
 * Deleting a key is not enough: the library saves every object its context still holds, so
 * once the keys are gone every object no longer reachable from the catalog is deleted from the
 * context too (the old Info dictionary, the XMP stream, the scripts, an earlier revision's
 * leftovers). The result is saved without object streams, so that nothing is hidden in a
 * compressed one (the tests search its bytes).
 *
 * Parsing decompresses the object and cross-reference streams (the only streams the library
 * decodes while loading): their decoded size is checked first (with zlib, bounded), at most
 * MAX_DECODED_BYTES per file, so that a 10 MB file cannot unpack into gigabytes. A file the library cannot read, one
 * without pages or one that needs a password to open returns null: it is refused.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { inflateSync } from "node:zlib";
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFObjectStreamParser,
  PDFRef,
  PDFStream,
  PDFXRefStreamParser,
  type PDFContext,
  type PDFObject,
  type PDFRawStream,
} from "@cantoo/pdf-lib";

/** What the object and cross-reference streams of one file may unpack into, together. */
export const MAX_DECODED_BYTES = 16 * 1024 * 1024;

/** The bytes left to the file being read; the parser's own errors are caught by itself, so running out is noted here too. */
const budget = new AsyncLocalStorage<{ left: number }>();
const FILTER = PDFName.of("Filter");
const FLATE = PDFName.of("FlateDecode");

/** The stream's decoded size, or more than `limit` once it passes it (never decoding further). */
function decodedSize(raw: PDFRawStream, limit: number): number {
  if (raw.dict.lookup(FILTER) === FLATE && !raw.transform) {
    try {
      // Node's zlib, quick and bounded; a predictor only takes bytes away.
      return inflateSync(raw.contents, { maxOutputLength: limit + 1 }).length;
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return limit + 1;
      // A damaged stream: the library's decoder reads what it can of it, counted below.
    }
  }
  const stream = decodePDFRawStream(raw);
  let size = 0;
  while (size <= limit) {
    const piece = stream.getBytes(64 * 1024);
    if (piece.length === 0) break;
    size += piece.length;
  }
  return size;
}

/** Counts an object or cross-reference stream against the file's budget before the parser decodes it whole. */
function spend(raw: PDFRawStream): void {
  const store = budget.getStore();
  if (!store) return;
  if (store.left >= 0) store.left -= decodedSize(raw, store.left);
  if (store.left < 0) throw new TooMuchDecoded();
}

class TooMuchDecoded extends Error {}

// The parser reaches both through these static factories (PDFParser.parseIndirectObject).
const objectStreamParser = PDFObjectStreamParser.forStream;
PDFObjectStreamParser.forStream = (raw, shouldWaitForTick) => {
  spend(raw);
  return objectStreamParser(raw, shouldWaitForTick);
};
const xrefStreamParser = PDFXRefStreamParser.forStream;
PDFXRefStreamParser.forStream = (raw) => {
  spend(raw);
  return xrefStreamParser(raw);
};

/** Keys removed from every dictionary: XMP metadata, additional actions, the opening action. */
const REMOVED_KEYS = ["Metadata", "AA", "OpenAction"].map((key) => PDFName.of(key));
/** Actions removed wherever they hang (an annotation's /A, an outline item's, an action's /Next). */
const REMOVED_ACTIONS = new Set(["JavaScript", "Launch", "ImportData", "SubmitForm", "Rendition"].map((type) => PDFName.of(type)));
/** Name trees removed from the catalog's /Names. */
const REMOVED_NAMES = ["JavaScript", "EmbeddedFiles"].map((key) => PDFName.of(key));
const S = PDFName.of("S");
const NAMES = PDFName.of("Names");

const dictOf = (object: PDFObject | undefined): PDFDict | undefined =>
  object instanceof PDFDict ? object : object instanceof PDFStream ? object.dict : undefined;

function isRemovedAction(context: PDFContext, object: PDFObject | undefined): boolean {
  const dict = dictOf(object instanceof PDFRef ? context.lookup(object) : object);
  const type = dict?.get(S);
  return type instanceof PDFName && REMOVED_ACTIONS.has(type);
}

/** The keys and actions above, out of one dictionary or array (the objects they pointed to are collected later). */
function clean(context: PDFContext, object: PDFObject): void {
  if (object instanceof PDFArray) {
    for (let i = object.size() - 1; i >= 0; i--) if (isRemovedAction(context, object.get(i))) object.remove(i);
    return;
  }
  const dict = dictOf(object);
  if (!dict) return;
  for (const key of REMOVED_KEYS) dict.delete(key);
  for (const [key, value] of dict.entries()) if (isRemovedAction(context, value)) dict.delete(key);
}

/** Every indirect object reachable from the trailer's root. */
function reachable(context: PDFContext, root: PDFObject): Set<PDFRef> {
  const seen = new Set<PDFRef>();
  const stack: PDFObject[] = [root];
  while (stack.length > 0) {
    const object = stack.pop()!;
    if (object instanceof PDFRef) {
      if (seen.has(object)) continue;
      seen.add(object);
      const target = context.lookup(object);
      if (target) stack.push(target);
    } else if (object instanceof PDFArray) stack.push(...object.asArray());
    else {
      const dict = dictOf(object);
      if (dict) for (const [, value] of dict.entries()) stack.push(value);
    }
  }
  return seen;
}

async function rewrite(data: Buffer, store: { left: number }): Promise<Buffer | null> {
  // An empty password opens a file that is only protected against changes; any other is not ours to open.
  const document = await PDFDocument.load(data, { updateMetadata: false, password: "" });
  if (store.left < 0 || document.isEncrypted || document.getPageCount() === 0) return null;
  const { context, catalog } = document;
  context.trailerInfo.Info = undefined;
  context.trailerInfo.ID = undefined;
  for (const [, object] of context.enumerateIndirectObjects()) clean(context, object);
  clean(context, catalog);
  const names = catalog.lookup(NAMES);
  if (names instanceof PDFDict) for (const key of REMOVED_NAMES) names.delete(key);
  const kept = reachable(context, context.trailerInfo.Root!);
  for (const [ref] of context.enumerateIndirectObjects()) if (!kept.has(ref)) context.delete(ref);
  const saved = await document.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  return Buffer.from(saved.buffer, saved.byteOffset, saved.byteLength);
}

/** The PDF without its metadata and scripts, or null when it cannot be read. */
export async function rewritePdf(data: Buffer): Promise<Buffer | null> {
  try {
    const store = { left: MAX_DECODED_BYTES };
    return await budget.run(store, () => rewrite(data, store));
  } catch (error) {
    // The library's parse and encryption errors, a decoded size over the budget: not a PDF we can take.
    if (error instanceof Error) return null;
    throw error;
  }
}
