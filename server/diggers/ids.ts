const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a uuid: checked before an id from an address or a form reaches a uuid column. */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
