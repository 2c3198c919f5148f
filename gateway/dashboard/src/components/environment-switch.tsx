import type { Environment } from "../api/client";
import { useWorkspace } from "../workspace";

const choices: { environment: Environment; label: string }[] = [
  { environment: "test", label: "Test" },
  { environment: "live", label: "Live" },
];

/** Test or live: always in the header, the pressed one shown; live is marked in the live colour. */
export function EnvironmentSwitch() {
  const workspace = useWorkspace();
  return (
    <div className="environment-switch" role="group" aria-label="Environment">
      {choices.map((choice) => (
        <button
          key={choice.environment}
          type="button"
          className={choice.environment}
          aria-pressed={workspace.environment === choice.environment}
          onClick={() => workspace.selectEnvironment(choice.environment)}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}
