import { describe, expect, it } from "vitest";
import {
  signUnsubscribeToken,
  unsubscribeUrl,
  userIdOfUnsubscribeToken,
  verifyUnsubscribeToken,
} from "../../server/mail/unsubscribe-token.ts";

const SECRET = "a-test-secret-that-is-long-enough-000";
const alice = { id: "AliceUserId123", email: "alice@example.com" };
const bob = { id: "BobUserId456", email: "bob@example.com" };

describe("unsubscribe tokens", () => {
  it("verify for the user and address they were signed for, whatever the address's case", () => {
    const token = signUnsubscribeToken(SECRET, alice.id, alice.email);
    expect(userIdOfUnsubscribeToken(token)).toBe(alice.id);
    expect(verifyUnsubscribeToken(SECRET, token, alice)).toBe(true);
    expect(verifyUnsubscribeToken(SECRET, token, { ...alice, email: "ALICE@Example.com" })).toBe(true);
  });

  it("refuse another user, another address, and another secret", () => {
    const token = signUnsubscribeToken(SECRET, alice.id, alice.email);
    expect(verifyUnsubscribeToken(SECRET, token, bob)).toBe(false);
    expect(verifyUnsubscribeToken(SECRET, token, { ...alice, email: "alice.new@example.com" })).toBe(false);
    expect(verifyUnsubscribeToken("another-secret-that-is-long-enough-0000", token, alice)).toBe(false);
  });

  it("refuse a token whose user id was swapped for someone else's", () => {
    const token = signUnsubscribeToken(SECRET, alice.id, alice.email);
    const forged = `${bob.id}${token.slice(alice.id.length)}`;
    expect(userIdOfUnsubscribeToken(forged)).toBe(bob.id);
    expect(verifyUnsubscribeToken(SECRET, forged, bob)).toBe(false);
  });

  it("refuse any change to the signature, including the last character's unused bits", () => {
    const token = signUnsubscribeToken(SECRET, alice.id, alice.email);
    const signature = token.slice(token.lastIndexOf(".") + 1);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (const position of [0, Math.floor(signature.length / 2), signature.length - 1]) {
      for (const replacement of alphabet) {
        if (replacement === signature[position]) continue;
        const tampered = `${alice.id}.${signature.slice(0, position)}${replacement}${signature.slice(position + 1)}`;
        expect(verifyUnsubscribeToken(SECRET, tampered, alice)).toBe(false);
      }
    }
    expect(verifyUnsubscribeToken(SECRET, `${token}A`, alice)).toBe(false);
    expect(verifyUnsubscribeToken(SECRET, token.slice(0, -1), alice)).toBe(false);
  });

  it("refuse malformed tokens", () => {
    for (const token of ["", ".", "no-dot", `.${"A".repeat(43)}`, `${alice.id}.`]) {
      expect(verifyUnsubscribeToken(SECRET, token, alice)).toBe(false);
    }
    expect(userIdOfUnsubscribeToken("no-dot")).toBeNull();
    expect(userIdOfUnsubscribeToken(`${"x".repeat(400)}.sig`)).toBeNull();
  });

  it("make a link on the site that carries the token intact", () => {
    const token = signUnsubscribeToken(SECRET, alice.id, alice.email);
    const url = new URL(unsubscribeUrl("https://digsandgigs.example", token));
    expect(url.origin + url.pathname).toBe("https://digsandgigs.example/unsubscribe");
    expect(url.searchParams.get("token")).toBe(token);
  });

  it("sign lead alerts' links under a purpose of their own: neither list's token works for the other", () => {
    const alerts = signUnsubscribeToken(SECRET, alice.id, alice.email, "lead-alerts");
    const promotional = signUnsubscribeToken(SECRET, alice.id, alice.email);
    expect(alerts).not.toBe(promotional);
    expect(verifyUnsubscribeToken(SECRET, alerts, alice, "lead-alerts")).toBe(true);
    expect(verifyUnsubscribeToken(SECRET, alerts, alice)).toBe(false);
    expect(verifyUnsubscribeToken(SECRET, promotional, alice, "lead-alerts")).toBe(false);
    const url = new URL(unsubscribeUrl("https://digsandgigs.example", alerts, "lead-alerts"));
    expect(url.searchParams.get("list")).toBe("lead-alerts");
    expect(url.searchParams.get("token")).toBe(alerts);
  });
});
