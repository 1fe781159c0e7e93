/**
 * Test PDFs made with @cantoo/pdf-lib: a plain one-page document, and one carrying every kind
 * of metadata and script that a message's PDF loses (server/conversations/pdf-rewrite.ts), each with
 * a unique marker inside the object that must go, written as literal strings so that a search
 * of the bytes finds them.
 */
import { PDFDocument, PDFName, PDFString, type PDFRef } from "@cantoo/pdf-lib";

/** A one-page PDF with no metadata; `useObjectStreams` packs its objects into compressed object streams. */
export async function plainPdf({ useObjectStreams = false } = {}): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.addPage([200, 200]).drawText("Quote", { x: 20, y: 100, size: 12 });
  return Buffer.from(await document.save({ useObjectStreams }));
}

/** The markers of `markedPdf`, each inside an object that must not survive. */
export const REMOVED_MARKERS = [
  "MarkerAuthor",
  "MarkerCreator",
  "MarkerXmp",
  "MarkerPageXmp",
  "MarkerOpenAction",
  "MarkerDocumentAction",
  "MarkerPageAction",
  "MarkerAnnotationAction",
  "MarkerLinkScript",
  "MarkerScriptName",
  "MarkerNamedScript",
  "MarkerOrphan",
] as const;
/** A link to an address, which stays: the byte search would find what survives. */
export const KEPT_MARKER = "https://example.com/KeptLink";

/**
 * A PDF with document information (Author, Creator), an XMP stream on the catalog and one on
 * its page, a JavaScript OpenAction, /AA on the catalog, the page and an annotation, a link
 * running JavaScript, a /Names /JavaScript tree, and an object nothing refers to (an earlier
 * revision's leftover); plus a link to an address that is kept.
 */
export async function markedPdf({ useObjectStreams = false } = {}): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const page = document.addPage([200, 200]);
  page.drawText("Quote", { x: 20, y: 100, size: 12 });
  const context = document.context;
  const text = (value: string) => PDFString.of(value);
  const script = (marker: string): PDFRef => context.register(context.obj({ Type: "Action", S: "JavaScript", JS: text(`app.alert('${marker}')`) }));
  const xmp = (marker: string): PDFRef =>
    context.register(context.stream(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description>${marker}</rdf:Description></rdf:RDF></x:xmpmeta>`, { Type: "Metadata", Subtype: "XML" }));
  context.trailerInfo.Info = context.register(context.obj({ Author: text("MarkerAuthor"), Creator: text("MarkerCreator") }));
  const catalog = document.catalog;
  catalog.set(PDFName.of("Metadata"), xmp("MarkerXmp"));
  catalog.set(PDFName.of("OpenAction"), script("MarkerOpenAction"));
  catalog.set(PDFName.of("AA"), context.obj({ WC: script("MarkerDocumentAction") }));
  catalog.set(PDFName.of("Names"), context.obj({ JavaScript: context.register(context.obj({ Names: [text("MarkerScriptName"), script("MarkerNamedScript")] })) }));
  page.node.set(PDFName.of("Metadata"), xmp("MarkerPageXmp"));
  page.node.set(PDFName.of("AA"), context.obj({ O: script("MarkerPageAction") }));
  const kept = context.register(context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 50, 50], A: { S: "URI", URI: text(KEPT_MARKER) }, AA: { E: script("MarkerAnnotationAction") } }));
  const scripted = context.register(context.obj({ Type: "Annot", Subtype: "Link", Rect: [60, 0, 110, 50], A: script("MarkerLinkScript") }));
  page.node.set(PDFName.of("Annots"), context.obj([kept, scripted]));
  context.register(context.obj({ Author: text("MarkerOrphan") }));
  return Buffer.from(await document.save({ useObjectStreams }));
}
