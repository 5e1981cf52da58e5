public enum GraphQLEngineVersion {}
