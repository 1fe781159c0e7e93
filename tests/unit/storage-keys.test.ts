import { describe, expect, it } from "vitest";
import { contentTypeOfKey, keyOfUploadUrl, uploadUrl } from "../../server/storage/storage.ts";

describe("storage keys and their addresses", () => {
  it("gives a photo's key its address and back, and the type its extension stands for", () => {
    expect(uploadUrl("diggers/abc/123.png")).toBe("/uploads/diggers/abc/123.png");
    expect(keyOfUploadUrl("/uploads/diggers/abc/123.png")).toBe("diggers/abc/123.png");
    expect(contentTypeOfKey("diggers/abc/123.png")).toBe("image/png");
  });

  it("refuses keys that are not keys", () => {
    for (const url of ["/uploads/../etc/passwd.jpg", "/uploads//a.jpg", "/uploads/A.jpg", "/uploads/a.gif", "/elsewhere/a.jpg"]) {
      expect(keyOfUploadUrl(url), url).toBeNull();
    }
    expect(() => uploadUrl("a.exe")).toThrow(/No public address/);
  });

  it("never gives a key under private/ a public address", () => {
    expect(() => uploadUrl("private/credentials/licence.jpg")).toThrow("No public address for storage key: private/credentials/licence.jpg");
    expect(keyOfUploadUrl("/uploads/private/credentials/licence.jpg")).toBeNull();
    expect(keyOfUploadUrl("/uploads/private.jpg")).toBe("private.jpg"); // a name, not the folder
    expect(contentTypeOfKey("private/credentials/licence.jpg")).toBe("image/jpeg"); // storable, only not public
  });

  it("allows a PDF only under private/ (proof documents), never at a public address", () => {
    expect(contentTypeOfKey("private/credentials/licence.pdf")).toBe("application/pdf");
    expect(contentTypeOfKey("diggers/abc/licence.pdf")).toBeNull();
    expect(keyOfUploadUrl("/uploads/diggers/abc/licence.pdf")).toBeNull();
    expect(keyOfUploadUrl("/uploads/private/credentials/licence.pdf")).toBeNull();
  });
});
