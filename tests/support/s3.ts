/**
 * An S3-protocol server for tests: s3rver in this process, on a free port of 127.0.0.1, with
 * its files in a temporary directory and one empty bucket. `env` is what the app needs to use
 * it; `client` speaks to it directly through the AWS SDK, to check what the app stored
 * without going through the app's own code.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { HeadObjectCommand, ListObjectsV2Command, NotFound, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

/** The one account s3rver knows; it checks the key id but not SigV4 signatures. */
const ACCESS_KEY = "S3RVER";

export interface S3Peer {
  bucket: string;
  endpoint: string;
  /** The app's settings for this server (path-style, as its endpoint implies). */
  env: Record<string, string>;
  client: S3Client;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  /** The stored object's content type and size, or null when there is none. */
  head(key: string): Promise<{ contentType?: string; size?: number } | null>;
  close(): Promise<void>;
}

export async function startS3Peer(bucket = "digs-uploads"): Promise<S3Peer> {
  const directory = await mkdtemp(path.join(tmpdir(), "dg-s3-"));
  // Port 0: the system picks a free port at the moment of listening, so no other server can take it first.
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const region = "us-east-1";
  const credentials = { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY };
  const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials });
  return {
    bucket,
    endpoint,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    client,
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    async head(key) {
      try {
        const object = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { contentType: object.ContentType, size: object.ContentLength };
      } catch (error) {
        if (error instanceof NotFound) return null;
        throw error;
      }
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
