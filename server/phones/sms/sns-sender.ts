/**
 * Text messages through Amazon SNS's Publish to a phone number (the AWS SDK, which S3 storage
 * already brings): transactional, so that SNS delivers it as a one-time code rather than
 * marketing. `endpoint` points the client at an SNS-speaking peer of one's own (the tests').
 */
import { PublishCommand, SNSClient } from "@aws-sdk/client-sns";
import type { SmsConfig } from "../../config.ts";
import type { SmsSender } from "./sender.ts";

export function createSnsSender(config: Extract<SmsConfig, { provider: "sns" }>): SmsSender {
  const client = new SNSClient({
    region: config.region,
    endpoint: config.endpoint,
    credentials: config.credentials,
    maxAttempts: 2,
    // The text is sent while its request waits: a silent provider fails it in seconds, not minutes.
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 8_000 },
  });
  return {
    async send(to, body) {
      const answer = await client.send(
        new PublishCommand({
          PhoneNumber: to,
          Message: body,
          MessageAttributes: { "AWS.SNS.SMS.SMSType": { DataType: "String", StringValue: "Transactional" } },
        }),
      );
      return { messageId: answer.MessageId ?? "" };
    },
    close() {
      client.destroy();
    },
  };
}
