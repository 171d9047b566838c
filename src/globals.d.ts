declare const __SVC_VERSION__: string;
