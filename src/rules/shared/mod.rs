//! SGLang's shared modules: helpers that several hook modules call (the runtime context, the
//! environment, the IB device checks, the CUDA-graph config, overrides' constants). Families
//! import these, never each other, as SGLang's hook modules import its shared modules.

pub mod cuda_graph_config;
pub mod dflash_utils;
pub mod dspark_config;
pub mod envs;
pub mod hisparse_hook;
pub mod ib_devices;
pub mod json_fix;
pub mod kv_events;
pub mod loaded_config;
pub mod model_override_base;
pub mod mooncake_transfer_engine;
pub mod overrides;
pub mod runtime_context;
pub mod speculative;
