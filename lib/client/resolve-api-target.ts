import type { Config } from "../config";
import { AppError } from "../errors";
import { readCliCredentials } from "./cli-credentials";
import type { ApiTarget } from "./teammem-api";

const HOW_TO_NAME_A_SERVER = "run `teammem login --server URL` (saves it) or set TEAMMEM_SERVER=URL";

/**
 * Where the CLI sends its requests and with which token. A saved token goes only to the server
 * it was saved for; TEAMMEM_TOKEN goes to TEAMMEM_SERVER, else to the saved server. There is no
 * guessed default: a guessed localhost:3000 sent people's tokens to the wrong place or nowhere.
 */
export async function resolveApiTarget(config: Pick<Config, "cliToken" | "cliServer" | "cliConfigDir">): Promise<ApiTarget> {
  const saved = await readCliCredentials(config.cliConfigDir);
  if (config.cliToken) {
    const server = config.cliServer ?? saved?.server;
    if (!server) throw new AppError("CONFIG_INVALID", `TEAMMEM_TOKEN is set but no teammem server is known: ${HOW_TO_NAME_A_SERVER}.`);
    return { server, token: config.cliToken };
  }
  if (!saved) throw new AppError("UNAUTHORIZED", `Not logged in: ${HOW_TO_NAME_A_SERVER} and give it a token, or set TEAMMEM_TOKEN and TEAMMEM_SERVER.`);
  if (config.cliServer && config.cliServer !== saved.server) {
    throw new AppError(
      "CONFIG_INVALID",
      `TEAMMEM_SERVER is ${config.cliServer} but the saved login is for ${saved.server}; its token is not sent elsewhere. Run \`teammem login --server ${config.cliServer}\`, or set TEAMMEM_TOKEN too.`,
    );
  }
  return saved;
}

/** The server `teammem login` checks a new token against: --server, TEAMMEM_SERVER, the saved one. */
export async function resolveLoginServer(config: Pick<Config, "cliServer" | "cliConfigDir">, flagServer: string | undefined): Promise<string> {
  const server = flagServer ?? config.cliServer ?? (await readCliCredentials(config.cliConfigDir))?.server;
  if (!server) throw new AppError("CONFIG_INVALID", `No teammem server given: ${HOW_TO_NAME_A_SERVER}.`);
  return server.replace(/\/$/, "");
}
