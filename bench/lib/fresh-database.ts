/**
 * A bench case's own database, made afresh on the PostgreSQL server at `serverUrl` (dropped
 * first with its connections, if a run left it): answers its connection URL.
 */
import pg from "pg";

export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
