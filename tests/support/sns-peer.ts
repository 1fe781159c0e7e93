/**
 * A local HTTP peer that speaks Amazon SNS's Query API for `Action=Publish` (the one call the
 * app makes: server/phones/sms/sns-sender.ts), reached through the SDK's `endpoint` setting.
 * It records each text (PhoneNumber, Message, the SMSType attribute) and the request's
 * signature header; `refuseWith` makes it answer SNS's error XML with status 400, as SNS does
 * for a refused number. Not a mock of our code: the real AWS SDK signs and sends to it.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface PublishedText {
  phoneNumber: string;
  message: string;
  smsType: string | null;
  /** The request's Authorization header (SigV4 from the SDK). */
  authorization: string | null;
  messageId: string;
}

export interface SnsPeer {
  port: number;
  /** The env a test app needs to send through this peer. */
  env: Record<string, string>;
  published: PublishedText[];
  /** When set, every Publish is refused with this SNS error (code, message), status 400. */
  refuseWith: { code: string; message: string } | null;
  /** Publish requests refused. */
  refused: number;
  stop(): Promise<void>;
}

const NS = "http://sns.amazonaws.com/doc/2010-03-31/";

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The SMSType among the form's MessageAttributes.entry.N.Name / .Value.StringValue. */
function smsTypeOf(form: URLSearchParams): string | null {
  for (const [key, value] of form) {
    const match = /^MessageAttributes\.entry\.(\d+)\.Name$/.exec(key);
    if (match && value === "AWS.SNS.SMS.SMSType") return form.get(`MessageAttributes.entry.${match[1]}.Value.StringValue`);
  }
  return null;
}

export async function startSnsPeer(): Promise<SnsPeer> {
  const peer: SnsPeer = {
    port: 0,
    env: {},
    published: [],
    refuseWith: null,
    refused: 0,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const form = new URLSearchParams(await bodyOf(request));
      const requestId = randomUUID();
      const answer = (status: number, xml: string) => {
        response.writeHead(status, { "content-type": "text/xml", "x-amzn-requestid": requestId });
        response.end(xml);
      };
      if (request.method !== "POST" || form.get("Action") !== "Publish") {
        answer(400, errorXml("InvalidAction", `Unsupported action ${form.get("Action") ?? ""}`, requestId));
        return;
      }
      if (peer.refuseWith) {
        peer.refused += 1;
        answer(400, errorXml(peer.refuseWith.code, peer.refuseWith.message, requestId));
        return;
      }
      const messageId = randomUUID();
      peer.published.push({
        phoneNumber: form.get("PhoneNumber") ?? "",
        message: form.get("Message") ?? "",
        smsType: smsTypeOf(form),
        authorization: request.headers.authorization ?? null,
        messageId,
      });
      answer(
        200,
        `<PublishResponse xmlns="${NS}"><PublishResult><MessageId>${messageId}</MessageId></PublishResult><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></PublishResponse>`,
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  peer.port = (server.address() as AddressInfo).port;
  peer.env = {
    SMS_PROVIDER: "sns",
    SMS_SNS_REGION: "us-east-1",
    SMS_SNS_ENDPOINT: `http://127.0.0.1:${peer.port}`,
    SMS_SNS_ACCESS_KEY_ID: "test",
    SMS_SNS_SECRET_ACCESS_KEY: "test",
  };
  return peer;
}

function errorXml(code: string, message: string, requestId: string): string {
  return `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
}
