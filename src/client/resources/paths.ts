/** Path building shared by the resources. */

/** `/collection/{id}` with the id URL-encoded (SKUs and ids may carry any character). */
export function itemPath(collection: string, id: string): string {
  return `${collection}/${encodeURIComponent(id)}`;
}
