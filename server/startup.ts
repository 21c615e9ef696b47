import { ConfigError, loadConfig, sharedDeploymentProblems, type Config } from './config';

/** Exits 2 (like a bad configuration) with the reason when the environment cannot run the process. */
export function failStartup(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The validated configuration, or exit 2 naming every bad variable (`npm start`, `npm run worker`). */
export function readConfigOrExit(): Config {
  try {
    const config = loadConfig();
    const problems = sharedDeploymentProblems(config);
    if (problems.length) failStartup(`Invalid configuration:\n${problems.join('\n')}`);
    return config;
  } catch (e) {
    if (e instanceof ConfigError) failStartup(e.message);
    throw e;
  }
}
