export function adminUrl(): string;
export function createThrowawayDatabase(): string;
export function dropDatabase(databaseUrl: string): Promise<void>;
