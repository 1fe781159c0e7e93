export const PRODUCT_NAME = "Digs & Gigs";

/** The title and description of a page, for its `meta` export. */
export function pageMeta(title: string, description: string) {
  return [
    { title: title === PRODUCT_NAME ? title : `${title} | ${PRODUCT_NAME}` },
    { name: "description", content: description },
  ];
}
