//! The machine SGLang would start on: the same presets as the project's recorder
//! (`tools/recorder/sgl_stubs.py`), so a verdict recorded on a profile is reproduced on it.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Cuda,
    Rocm,
    Cpu,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hardware {
    pub preset: &'static str,
    pub name: &'static str,
    pub platform: Platform,
    pub gpu_name: &'static str,
    /// CUDA compute capability (major, minor); gfx arch family for ROCm as the recorder maps it.
    pub capability: (u32, u32),
    pub gpu_count: u32,
    pub gpu_mem_mib: u64,
    pub multi_processor_count: u32,
    pub cuda_version: Option<&'static str>,
    pub hip_version: Option<&'static str>,
    pub gcn_arch: Option<&'static str>,
    pub host_mem_gib: u64,
    pub host_cpus: u32,
    pub flashinfer: bool,
    pub mnnvl_fabric: bool,
    pub ib_devices: u32,
}

const H100: Hardware = Hardware {
    preset: "h100",
    name: "8xH100-80GB",
    platform: Platform::Cuda,
    gpu_name: "NVIDIA H100 80GB HBM3",
    capability: (9, 0),
    gpu_count: 8,
    gpu_mem_mib: 81559,
    multi_processor_count: 132,
    cuda_version: Some("13.0"),
    hip_version: None,
    gcn_arch: None,
    host_mem_gib: 2048,
    host_cpus: 224,
    flashinfer: true,
    mnnvl_fabric: false,
    ib_devices: 8,
};

pub const PRESETS: &[Hardware] = &[
    H100,
    Hardware { preset: "h200", name: "8xH200", gpu_name: "NVIDIA H200", gpu_mem_mib: 143771, ..H100 },
    Hardware {
        preset: "b200",
        name: "8xB200",
        gpu_name: "NVIDIA B200",
        capability: (10, 0),
        gpu_mem_mib: 183359,
        multi_processor_count: 148,
        ..H100
    },
    Hardware {
        preset: "gb200",
        name: "4xGB200-NVL",
        gpu_name: "NVIDIA GB200",
        capability: (10, 0),
        gpu_count: 4,
        gpu_mem_mib: 189471,
        multi_processor_count: 152,
        mnnvl_fabric: true,
        ib_devices: 4,
        ..H100
    },
    Hardware {
        preset: "a100",
        name: "8xA100-80GB",
        gpu_name: "NVIDIA A100-SXM4-80GB",
        capability: (8, 0),
        gpu_mem_mib: 81920,
        multi_processor_count: 108,
        ..H100
    },
    Hardware {
        preset: "l40s",
        name: "4xL40S",
        gpu_name: "NVIDIA L40S",
        capability: (8, 9),
        gpu_count: 4,
        gpu_mem_mib: 46068,
        multi_processor_count: 142,
        ..H100
    },
    Hardware {
        preset: "rtx5090",
        name: "1xRTX5090",
        gpu_name: "NVIDIA GeForce RTX 5090",
        capability: (12, 0),
        gpu_count: 1,
        gpu_mem_mib: 32607,
        multi_processor_count: 170,
        ..H100
    },
    Hardware {
        preset: "mi300x",
        name: "8xMI300X",
        platform: Platform::Rocm,
        gpu_name: "AMD Instinct MI300X",
        capability: (9, 4),
        gpu_mem_mib: 196592,
        multi_processor_count: 304,
        cuda_version: None,
        hip_version: Some("7.0.51831-a3e329ad8"),
        gcn_arch: Some("gfx942:sramecc+:xnack-"),
        flashinfer: false,
        ..H100
    },
    Hardware {
        preset: "mi355x",
        name: "8xMI355X",
        platform: Platform::Rocm,
        gpu_name: "AMD Instinct MI355X",
        capability: (9, 5),
        gpu_mem_mib: 294896,
        multi_processor_count: 256,
        cuda_version: None,
        hip_version: Some("7.0.51831-a3e329ad8"),
        gcn_arch: Some("gfx950:sramecc+:xnack-"),
        flashinfer: false,
        ..H100
    },
    Hardware {
        preset: "cpu",
        name: "cpu",
        platform: Platform::Cpu,
        gpu_count: 0,
        flashinfer: false,
        ib_devices: 0,
        ..H100
    },
];

impl Hardware {
    /// A preset by name, with an optional GPU count override.
    pub fn preset(name: &str, gpu_count: Option<u32>) -> Option<Hardware> {
        let mut hw = PRESETS.iter().find(|p| p.preset.eq_ignore_ascii_case(name))?.clone();
        if let Some(n) = gpu_count {
            hw.gpu_count = n;
        }
        Some(hw)
    }

    pub fn default_h100() -> Hardware {
        H100
    }

    pub fn is_cuda(&self) -> bool {
        self.platform == Platform::Cuda
    }
    pub fn is_hip(&self) -> bool {
        self.platform == Platform::Rocm
    }
    /// SGLang's `is_sm90_supported`-style checks compare the major capability.
    pub fn sm(&self) -> u32 {
        self.capability.0 * 10 + self.capability.1
    }
    /// Human summary for banners: "8×H100".
    pub fn summary(&self) -> String {
        if self.platform == Platform::Cpu {
            "CPU".to_string()
        } else {
            format!("{}×{}", self.gpu_count, self.preset.to_ascii_uppercase())
        }
    }
}
