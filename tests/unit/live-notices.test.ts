/**
 * What travels on the bus's `live` channel (server/live/publish.ts) and what the page makes of
 * the stream's events (core/live-events.ts): ids only, each NOTIFY under PostgreSQL's limit.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { liveNoticeOf, type LiveEvent } from "../../core/live-events.ts";
import { MAX_PAYLOAD_BYTES } from "../../server/bus.ts";
import { livePayloads, parseLivePayload } from "../../server/live/publish.ts";

const event: Extract<LiveEvent, { kind: "thread" }> = { kind: "thread", threadId: randomUUID() };

describe("livePayloads", () => {
  it("fits any number of users in notices under NOTIFY's 8000 bytes, each user once", () => {
    const users = Array.from({ length: 1_000 }, () => randomUUID());
    const payloads = livePayloads([...users, users[0]!], event);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const parsed = payloads.map((p) => parseLivePayload(p)!);
    expect(parsed.flatMap((p) => p.u).sort()).toEqual([...users].sort());
    expect(parsed.every((p) => p.e.kind === "thread" && p.e.threadId === event.threadId)).toBe(true);
  });

  it("carries the event's ids and nothing else an object passed in holds", () => {
    const withText = { ...event, body: "a private message" } as LiveEvent;
    const [payload] = livePayloads(["user-1"], withText);
    expect(payload).not.toContain("private");
    expect(JSON.parse(payload!)).toEqual({ u: ["user-1"], e: event });
  });

  it("refuses what is not an event or not a user id", () => {
    expect(() => livePayloads(["user-1"], { kind: "thread", threadId: "<script>" })).toThrow("not a live event");
    expect(() => livePayloads(["user-1"], { kind: "gig", threadId: event.threadId } as unknown as LiveEvent)).toThrow("not a live event");
    expect(() => livePayloads(["user-1"], { kind: "quotes", gigId: "nope" })).toThrow("not a live event");
    expect(() => livePayloads(["user-1"], { kind: "quotes", threadId: event.threadId } as unknown as LiveEvent)).toThrow("not a live event");
    expect(() => livePayloads([""], event)).toThrow("not a user id");
    expect(() => livePayloads(["x".repeat(65)], event)).toThrow("not a user id");
  });

  it("reads back only what it wrote", () => {
    expect(parseLivePayload("not json")).toBeNull();
    expect(parseLivePayload(JSON.stringify({ u: "user-1", e: event }))).toBeNull();
    expect(parseLivePayload(JSON.stringify({ u: ["user-1"], e: { kind: "thread", threadId: "nope" } }))).toBeNull();
  });
});

describe("liveNoticeOf (the page's reading of an event)", () => {
  it("reads thread and quotes events and resync, and nothing else", () => {
    expect(liveNoticeOf("thread", JSON.stringify({ threadId: "t-1" }))).toEqual({ kind: "thread", threadId: "t-1" });
    expect(liveNoticeOf("quotes", JSON.stringify({ gigId: "g-1" }))).toEqual({ kind: "quotes", gigId: "g-1" });
    expect(liveNoticeOf("quotes", JSON.stringify({ threadId: "t-1" }))).toBeNull();
    expect(liveNoticeOf("resync", "{}")).toEqual({ kind: "resync" });
    expect(liveNoticeOf("ready", "{}")).toBeNull();
    expect(liveNoticeOf("thread", "not json")).toBeNull();
    expect(liveNoticeOf("thread", JSON.stringify({ threadId: 42 }))).toBeNull();
  });
});
