export * from './useAdminData';
