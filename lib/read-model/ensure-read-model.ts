import type { Config } from "../config";
import type { Db } from "../db/client";
import { refreshStore } from "../store/read-store";
import { syncReadModel, type ReadModelSync } from "./sync-read-model";

/**
 * What every read of team memory calls first: fetch the store (at most every few seconds; an
 * unreachable remote leaves the last known state) and bring the read model to its head. After a
 * commit of this or another instance, that is one small diff.
 */
export async function ensureReadModel(config: Config, db: Db): Promise<ReadModelSync> {
  await refreshStore(config);
  return syncReadModel(config, db);
}
