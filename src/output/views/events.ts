/** How events are shown. */
import type { Event } from '../../contract/schemas/event.js';
import type { View } from '../view.js';

/** Events: what happened to which resource, newest first. */
export const eventsView: View<Event> = {
  columns: [
    { header: 'ID', cell: (e) => e.id },
    { header: 'TYPE', cell: (e) => e.type },
    {
      header: 'OBJECT',
      cell: (e) => objectOf(e),
      drop: 1,
    },
    { header: 'CREATED', time: (e) => e.created_at },
  ],
  fields: ['id', 'type', 'api_version', 'store_id', 'created_at', 'data.object.id', 'data.object.object'],
};

/** What an event is about: its object's id, or for an inventory item (which has none) its SKU. */
function objectOf(event: Event): string {
  const object = event.data?.object as { id?: unknown; sku?: unknown } | undefined;
  return String(object?.id ?? object?.sku ?? '');
}
