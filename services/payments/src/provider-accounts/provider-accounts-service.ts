import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { SealedProviderSecretsSchema, type ProviderAccountsService } from "@bayad/proto";
import { AppError } from "@bayad/kit";
import { providerAccountToProto } from "./provider-account.js";
import { readAccountScope, readPutProviderAccountInput } from "./provider-account-input.js";
import {
  deleteProviderAccount,
  getProviderAccount,
  listProviderAccounts,
  putProviderAccount,
  resealProviderSecrets,
  resolveProviderAccount,
  type ProviderAccountsDeps,
} from "./provider-accounts.js";

/**
 * The ProviderAccountsService rpc handlers. The gateway's admin API calls them for a project it
 * names, so they read the project and environment from the request, never from the caller
 * context (an admin call carries none).
 */
export function createProviderAccountsService(deps: ProviderAccountsDeps): ServiceImpl<typeof ProviderAccountsService> {
  return {
    async putProviderAccount(request) {
      const input = readPutProviderAccountInput(request);
      const { account, created } = await putProviderAccount(deps, input);
      return { providerAccount: providerAccountToProto(account), created };
    },

    async getProviderAccount(request) {
      return { providerAccount: providerAccountToProto(await getProviderAccount(deps, readAccountScope(request))) };
    },

    async listProviderAccounts(request) {
      if (!request.projectId) throw new AppError("VALIDATION_FAILED", undefined, { details: ["projectId: is required"] });
      return { providerAccounts: (await listProviderAccounts(deps, request.projectId)).map(providerAccountToProto) };
    },

    async deleteProviderAccount(request) {
      return { providerAccount: providerAccountToProto(await deleteProviderAccount(deps, readAccountScope(request))) };
    },

    async resolveProviderAccount(request) {
      let account;
      switch (request.by.case) {
        case "project":
          account = await resolveProviderAccount(deps, { ...readAccountScope(request.by.value), hostedPayments: request.by.value.hostedPayments });
          break;
        case "providerAccountId":
          account = await resolveProviderAccount(deps, { providerAccountId: request.by.value });
          break;
        default:
          throw new AppError("VALIDATION_FAILED", undefined, { details: ["by: name a project and environment, or a providerAccountId"] });
      }
      return {
        providerAccount: providerAccountToProto(account),
        sealed: create(SealedProviderSecretsSchema, {
          secretKey: account.secretKey,
          webhookSecret: account.webhook?.secret ?? "",
          callbackToken: account.callback?.token ?? "",
        }),
      };
    },

    async resealProviderAccountSecrets() {
      return { counts: await resealProviderSecrets(deps) };
    },
  };
}
