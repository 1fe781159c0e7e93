/**
 * Uploads in an S3-compatible object store (Amazon S3, MinIO, Ceph, R2...), so that every
 * server behind a proxy reads the files any of them stored. Same keys and rules as the local
 * disk (storage.ts): an invalid key is refused, a missing object is null, and the content type
 * always comes from the key, never from what the store says. The bucket stays private: the
 * app reads it with its own credentials and serves public photos at /uploads/.
 */
import type { S3Config } from "../config.ts";
import { contentTypeOfKey, type Storage } from "./storage.ts";

/** A store that does not answer fails the request within seconds rather than holding it. */
const CONNECTION_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

export function createS3Storage({ endpoint, bucket, region, forcePathStyle, credentials }: S3Config): Storage {
  // Loaded only when configured, at start: the SDK takes about half a second to import.
  const sdk = import("@aws-sdk/client-s3").then((s3) => ({
    s3,
    client: new s3.S3Client({
      endpoint,
      region,
      forcePathStyle,
      credentials,
      requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    }),
  }));
  const checked = (key: string) => {
    const contentType = contentTypeOfKey(key);
    if (!contentType) throw new Error(`Invalid storage key: ${key}`);
    return contentType;
  };
  return {
    async put(key, data) {
      const contentType = checked(key);
      const { s3, client } = await sdk;
      await client.send(new s3.PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: contentType }));
    },
    async get(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return null;
      const { s3, client } = await sdk;
      try {
        const object = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }));
        return { data: Buffer.from(await object.Body!.transformToByteArray()), contentType };
      } catch (error) {
        // Only a missing object: a missing bucket or refused credentials are errors, not "no photo".
        if (error instanceof s3.NoSuchKey) return null;
        throw error;
      }
    },
    async delete(key) {
      checked(key);
      const { s3, client } = await sdk;
      // Deleting a missing object succeeds, like removing a missing file (rm with force).
      await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
