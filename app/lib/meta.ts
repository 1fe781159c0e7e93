import { PRODUCT_NAME } from "#core/product.ts";

/** The title and description of a page, for its `meta` export. */
export function pageMeta(title: string, description: string) {
  return [
    { title: title === PRODUCT_NAME ? title : `${title} | ${PRODUCT_NAME}` },
    { name: "description", content: description },
  ];
}

/** Open Graph tags, so that a shared link shows a proper card. `url` is absolute. */
export function openGraph({ title, description, url, image }: { title: string; description: string; url: string; image?: string | null }) {
  return [
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: PRODUCT_NAME },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    ...(image ? [{ property: "og:image", content: image }] : []),
  ];
}

/** The site's public address, from the root loader's data, for absolute URLs in meta tags. */
export function publicUrlFrom(matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>): string {
  const root = matches.find((m) => m?.id === "root")?.data as { publicUrl?: string } | undefined;
  return root?.publicUrl ?? "";
}
