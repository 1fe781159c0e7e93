import { createContext, useContext } from "react";

/**
 * The request's Content-Security-Policy nonce, provided by `app/entry.server.tsx` while the
 * page renders on the server. In the browser it is undefined: scripts are already running.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
