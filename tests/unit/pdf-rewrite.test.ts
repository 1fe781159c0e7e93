/**
 * A message's PDF is written again without its metadata and scripts (server/conversations/pdf-rewrite.ts,
 * issue 45 finding 7, decision 0068): a PDF carrying document information, XMP, an OpenAction,
 * /AA on the catalog, a page and an annotation, a scripted link, a /Names /JavaScript tree and an
 * object nothing refers to comes out with none of their markers in its bytes, its page and its
 * link to an address kept; packed in object streams too. A file the library cannot read, one
 * without pages and one whose object streams unpack past the budget are refused (null).
 */
import { deflateSync } from "node:zlib";
import { PDFDict, PDFDocument, PDFName } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { MAX_DECODED_BYTES, rewritePdf } from "../../server/conversations/pdf-rewrite.ts";
import { KEPT_MARKER, markedPdf, plainPdf, REMOVED_MARKERS } from "../support/pdf.ts";

describe("rewriting a PDF", () => {
  for (const useObjectStreams of [false, true]) {
    it(`leaves no removed object in the saved bytes (${useObjectStreams ? "objects packed in object streams" : "plain objects"})`, async () => {
      const original = await markedPdf({ useObjectStreams });
      if (!useObjectStreams) for (const marker of [...REMOVED_MARKERS, KEPT_MARKER]) expect(original.includes(marker), marker).toBe(true);
      const rewritten = (await rewritePdf(original))!;
      for (const marker of REMOVED_MARKERS) expect(rewritten.includes(marker), marker).toBe(false);
      // What stays is in the bytes as they are searched: no object stream hides anything.
      expect(rewritten.includes(KEPT_MARKER)).toBe(true);
      expect(rewritten.includes("/ObjStm")).toBe(false);
      for (const key of ["/Info", "/Metadata", "/OpenAction", "/AA", "/JavaScript", "/JS"]) expect(rewritten.includes(key), key).toBe(false);

      const document = await PDFDocument.load(rewritten, { updateMetadata: false });
      expect(document.getPageCount()).toBe(1);
      expect(document.getAuthor()).toBeUndefined();
      expect(document.getCreator()).toBeUndefined();
      // Both links stay: the one to an address with its action, the scripted one without any.
      const annotations = document.getPage(0).node.Annots()!;
      expect(annotations.size()).toBe(2);
      expect(annotations.lookup(0, PDFDict).lookup(PDFName.of("A"), PDFDict).get(PDFName.of("S"))).toBe(PDFName.of("URI"));
      expect(annotations.lookup(1, PDFDict).has(PDFName.of("A"))).toBe(false);
    });
  }

  it("keeps a plain PDF's page and content", async () => {
    const original = await plainPdf();
    const rewritten = (await rewritePdf(original))!;
    const [before, after] = await Promise.all([original, rewritten].map((bytes) => PDFDocument.load(bytes)));
    expect(after!.getPage(0).getSize()).toEqual(before!.getPage(0).getSize());
    expect(after!.getPage(0).node.Contents()).toBeDefined();
  });

  it("refuses what it cannot read, a PDF without pages, and object streams that unpack past the budget", async () => {
    expect(await rewritePdf(Buffer.from("%PDF-1.4\nnot really a PDF\n%%EOF\n"))).toBeNull();
    expect(await rewritePdf(Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"))).toBeNull();
    // 26 MB of spaces in a 26 KB object stream, then a valid document; the filter named alone (zlib
    // checks it) and as an array (the library's own decoder, counted as it goes).
    const bomb = deflateSync(Buffer.alloc(MAX_DECODED_BYTES + 10 * 1024 * 1024, 0x20));
    const plain = (await plainPdf()).toString("latin1");
    for (const filter of ["/FlateDecode", "[/FlateDecode]"]) {
      const head = `%PDF-1.7\n99 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter ${filter} /Length ${bomb.length} >>\nstream\n`;
      const withBomb = Buffer.concat([Buffer.from(head, "latin1"), bomb, Buffer.from(`\nendstream\nendobj\n${plain.slice(plain.indexOf("\n") + 1)}`, "latin1")]);
      expect(await rewritePdf(withBomb), filter).toBeNull();
    }
    // Within the budget, the same shape is read.
    const small = deflateSync(Buffer.from("1 0 ", "latin1"));
    const head = `%PDF-1.7\n99 0 obj\n<< /Type /ObjStm /N 0 /First 4 /Filter /FlateDecode /Length ${small.length} >>\nstream\n`;
    const fine = Buffer.concat([Buffer.from(head, "latin1"), small, Buffer.from(`\nendstream\nendobj\n${plain.slice(plain.indexOf("\n") + 1)}`, "latin1")]);
    expect(await rewritePdf(fine)).not.toBeNull();
  });
});
