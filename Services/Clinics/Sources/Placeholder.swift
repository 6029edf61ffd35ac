// Clinics vertical: in progress
